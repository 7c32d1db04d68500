import { describe, expect, it } from 'vitest';
import { passwordProblem } from './password-policy';

const owner = { firstName: 'Neema', lastName: 'Wanjiru', email: 'neema.w@example.com' };

describe('the password policy', () => {
  it.each(['aaaaaaaaaa', '1234567890', 'password12', 'qwertyuiop', 'letmein12345', 'Passw0rd!23'])(
    'refuses the common or guessable %s',
    (password) => {
      expect(passwordProblem(password, owner)).toMatch(/too common or too easy to guess/);
    },
  );

  it.each(['neema wanjiru 1990', 'Wanjiru2026!', 'neema.w-rocks!!'])(
    "refuses %s, built on the person's own name or e-mail",
    (password) => {
      expect(passwordProblem(password, owner)).toMatch(/name or e-mail/);
    },
  );

  it.each(['correct horse battery staple', 'long enough password', 'Tr0ub4dor&3xx', 'another passphrase'])(
    'accepts %s',
    (password) => {
      expect(passwordProblem(password, owner)).toBeNull();
    },
  );
});
