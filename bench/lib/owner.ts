const OWNER = { email: 'bench@example.com', password: 'benchmark password' };

/** A signed-in owner (the first registration) with a CSRF token, for API calls from a benchmark. */
export async function benchOwner(url: string): Promise<{ headers: Record<string, string> }> {
  const registered = await fetch(`${url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...OWNER, firstName: 'Bench', lastName: 'Owner' }),
  });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  return withCsrf(url, registered);
}

/** The owner `benchOwner` registered, signed in again: on a copy of a benchmark's kept database. */
export async function benchOwnerAgain(url: string): Promise<{ headers: Record<string, string> }> {
  const signedIn = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(OWNER),
  });
  if (signedIn.status !== 200) throw new Error(`login: ${signedIn.status} ${await signedIn.text()}`);
  return withCsrf(url, signedIn);
}

async function withCsrf(url: string, session: Response): Promise<{ headers: Record<string, string> }> {
  const cookies = session.headers.getSetCookie().map((c) => c.split(';')[0]);
  const csrf = await fetch(`${url}/api/csrf-token`, { headers: { cookie: cookies.join('; ') } });
  cookies.push(...csrf.headers.getSetCookie().map((c) => c.split(';')[0]));
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return {
    headers: { cookie: cookies.join('; '), 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
  };
}
