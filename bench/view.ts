import sharp from 'sharp';

/**
 * The greetie view Lighthouse measures (decision 090: the first frame, poster or photo, is the
 * page's LCP and visible within 2.5 s on the mobile profile): a greetie made the way the product makes
 * one, over HTTP: a sender signs in, makes a greetie with a photo (1080×1350 JPEG, a blurred noise
 * pattern so it weighs like a photo, not a flat colour), a text over it and one fixed-price InStore
 * gift, pays in the sandbox, and the server's delivery worker delivers it. Answers the public
 * view's path, /greetie/view/{refId} (what the recipient's SMS links to), sent to `to`.
 */
export async function deliveredGreetieWithPhoto(
  baseUrl: string,
  signIn: (baseUrl: string) => Promise<string>,
  to = '+46709990001',
): Promise<{ path: string; photoBytes: number }> {
  const token = await signIn(baseUrl);
  const auth = { authorization: `Bearer ${token}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const ok = async <T>(res: Response, what: string): Promise<T> => {
    if (res.status !== 200) throw new Error(`${what} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    return (await res.json()) as T;
  };
  await ok(await fetch(`${baseUrl}/api/mobileuser`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Anna' }) }), 'POST /api/mobileuser');
  const merchants = await ok<{ id: string }[]>(await fetch(`${baseUrl}/api/merchant`), 'GET /api/merchant');
  let productId: string | undefined;
  for (const m of merchants) {
    const products = await ok<{ id: string; source: string; price?: number | null }[]>(await fetch(`${baseUrl}/api/merchant/${m.id}/products`), 'GET /api/merchant/{id}/products');
    productId = products.find((p) => p.source === 'InStore' && typeof p.price === 'number' && p.price > 0)?.id;
    if (productId) break;
  }
  if (!productId) throw new Error('the demo catalogue has no fixed-price InStore product');
  const draft = await ok<{ id: string; refId: string }>(
    await fetch(`${baseUrl}/api/greetie/createv2`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        recipient: { mobileNumber: to, name: 'Bo' },
        message: 'Grattis på födelsedagen!',
        content: [{ type: 'text', value: 'Hurra!', x: 0.5, y: 0.2, scale: 1.4, rotation: -4 }],
        gifts: [{ productId }],
      }),
    }),
    'POST /api/greetie/createv2',
  );
  const photo = await sharp({ create: { width: 1080, height: 1350, channels: 3, background: '#f4a6c8', noise: { type: 'gaussian', mean: 150, sigma: 40 } } })
    .blur(3)
    .jpeg({ quality: 82 })
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([photo], { type: 'image/jpeg' }), 'foto.jpg');
  await ok(await fetch(`${baseUrl}/api/greetie/${draft.id}/media`, { method: 'POST', headers: auth, body: form }), 'POST /api/greetie/{id}/media');
  const payment = await ok<{ id: string }>(
    await fetch(`${baseUrl}/api/greetie/${draft.id}/startpayment`, { method: 'POST', headers: json, body: '{"withdrawalConsent":true}' }),
    'POST /api/greetie/{id}/startpayment',
  );
  await ok(
    await fetch(`${baseUrl}/api/sandbox/payments/${payment.id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ outcome: 'paid' }) }),
    'POST /api/sandbox/payments/{id}',
  );
  const until = Date.now() + 30_000;
  for (;;) {
    const g = await ok<{ status: string }>(await fetch(`${baseUrl}/api/greetie/${draft.id}?markAsViewed=false`, { headers: auth }), 'GET /api/greetie/{id}');
    if (g.status === 'delivered') break;
    if (Date.now() > until) throw new Error(`the greetie was not delivered within 30 s (status ${g.status})`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { path: `/greetie/view/${draft.refId}`, photoBytes: photo.length };
}
