// The greetie a recipient opens from the SMS link (/greetie/view/:id) is its own chunk: the page a
// phone opens first should not carry the compose editor, the lists and the payment (decision 011).
export { GreetieViewPage } from './GreetieViewPage.tsx';
