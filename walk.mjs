import { chromium } from 'playwright-core';

const [port, pw] = process.argv.slice(2);
const b = await chromium.launch({
  executablePath: '/usr/lib/chromium/chromium-headless-shell',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
const p = await b.newPage();
await p.goto(`http://localhost:${port}/login`);
await p.getByTestId('input-email').fill('owner@demo.example.com');
await p.getByTestId('input-password').fill(pw);
await p.getByTestId('button-submit').click();
await p.waitForURL((u) => !u.pathname.startsWith('/login'));
for (let round = 0; round < 2; round++)
  for (const path of [
    '/',
    '/contracts',
    '/customers',
    '/collections',
    '/payment-processing',
    '/device-control',
    '/devices',
    '/finance',
    '/communications',
    '/admin/close-of-business',
  ]) {
    await p.goto(`http://localhost:${port}${path}`);
    await p.waitForLoadState('networkidle');
  }
await b.close();
