import { describe, expect, it } from 'vitest';
import { avatarLetter, displayName, isActivePath, navTestId, roleDescription } from './nav-rules';

describe('isActivePath (seed: equal, or the current path starts with the item path; / only exactly)', () => {
  it('matches the same path', () => {
    expect(isActivePath('/contracts', '/contracts')).toBe(true);
  });

  it('matches deeper paths under the item', () => {
    expect(isActivePath('/crm', '/crm/contacts/42')).toBe(true);
    expect(isActivePath('/admin/users', '/admin/users/invites')).toBe(true);
  });

  it('follows the seed literally: a plain prefix counts too', () => {
    expect(isActivePath('/help', '/help-tutorial')).toBe(true);
  });

  it('does not match other paths', () => {
    expect(isActivePath('/contracts', '/collections')).toBe(false);
    expect(isActivePath('/crm/contacts', '/crm')).toBe(false);
  });

  it("matches '/' only exactly", () => {
    expect(isActivePath('/', '/')).toBe(true);
    expect(isActivePath('/', '/contracts')).toBe(false);
    expect(isActivePath('/', '/admin/users')).toBe(false);
  });
});

describe('avatarLetter (first name, else e-mail, else U)', () => {
  it('uses the first letter of the first name', () => {
    expect(avatarLetter({ firstName: 'grace', email: 'owner@demo.example.com' })).toBe('G');
  });

  it('falls back to the e-mail when the first name is empty or blank', () => {
    expect(avatarLetter({ firstName: '', email: 'owner@demo.example.com' })).toBe('O');
    expect(avatarLetter({ firstName: '   ', email: 'samuel@x.org' })).toBe('S');
    expect(avatarLetter({ firstName: null, email: 'z@x.org' })).toBe('Z');
  });

  it("falls back to 'U' when there is neither", () => {
    expect(avatarLetter({ firstName: '', email: '' })).toBe('U');
    expect(avatarLetter({})).toBe('U');
    expect(avatarLetter(null)).toBe('U');
    expect(avatarLetter(undefined)).toBe('U');
  });
});

describe('display helpers', () => {
  it('builds the full name, else the e-mail', () => {
    expect(displayName({ firstName: 'Grace', lastName: 'Owino', email: 'g@x.org' })).toBe('Grace Owino');
    expect(displayName({ firstName: '', lastName: '', email: 'g@x.org' })).toBe('g@x.org');
  });

  it('names roles, marking the owner', () => {
    expect(roleDescription({ role: 'admin', isOwner: true })).toBe('Owner · Administrator');
    expect(roleDescription({ role: 'collector', isOwner: false })).toBe('Collector');
  });

  it('makes stable test ids from paths', () => {
    expect(navTestId('/')).toBe('nav-dashboard');
    expect(navTestId('/contracts')).toBe('nav-contracts');
    expect(navTestId('/admin/users', 'mobile-nav')).toBe('mobile-nav-admin-users');
  });
});
