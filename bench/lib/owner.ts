/** A signed-in owner (the first registration) with a CSRF token, for API calls from a benchmark. */
export async function benchOwner(url: string): Promise<{ headers: Record<string, string> }> {
  const registered = await fetch(`${url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: 'bench@example.com',
      password: 'benchmark password',
      firstName: 'Bench',
      lastName: 'Owner',
    }),
  });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  const cookies = registered.headers.getSetCookie().map((c) => c.split(';')[0]);
  const csrf = await fetch(`${url}/api/csrf-token`, { headers: { cookie: cookies.join('; ') } });
  cookies.push(...csrf.headers.getSetCookie().map((c) => c.split(';')[0]));
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return {
    headers: { cookie: cookies.join('; '), 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
  };
}
