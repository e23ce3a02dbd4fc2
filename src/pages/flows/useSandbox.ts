// One check for the whole app (src/components/useSandboxOn.ts); /flows uses it as /sandbox does.
export { useSandboxOn } from '../../components/useSandboxOn.ts';
