import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { fieldError } from '../../errors';

/**
 * What a new password must be besides its length (issue 12 §4): not a common or breached-style
 * password and not guessable from patterns (zxcvbn-ts with its maintained common-password and
 * names dictionaries: `aaaaaaaaaa`, `1234567890`, `password12` and keyboard walks are refused),
 * and not built on the person's own name or e-mail. Checked on the server wherever a password is
 * set (registration, a password change); the message says what to do instead.
 */
const zxcvbn = new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });

/** zxcvbn's 0-4; 3 is "safely unguessable" against an online attack with throttling. */
const MIN_SCORE = 3;
/** A name or e-mail part shorter than this is too common a substring to take out. */
const MIN_PERSONAL_PART = 3;
/** What must be left once the name and e-mail are taken out, for them to be decoration, not the password. */
const MIN_REST = 6;

export interface PasswordOwner {
  firstName: string;
  lastName: string;
  email: string;
}

const letters = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]/g, '');

/** Why the password cannot be used, or null. */
export function passwordProblem(password: string, owner: PasswordOwner): string | null {
  const flat = letters(password);
  const local = owner.email.split('@')[0] ?? '';
  const personal = [owner.firstName, owner.lastName, local]
    .map(letters)
    .filter((part) => part.length >= MIN_PERSONAL_PART)
    .sort((a, b) => b.length - a.length);
  const rest = personal.reduce((left, part) => left.replaceAll(part, ''), flat);
  if (rest.length < MIN_REST && rest.length < flat.length)
    return 'Do not build your password on your name or e-mail address; choose words others would not guess';
  const result = zxcvbn.check(password.slice(0, 100), [owner.firstName, owner.lastName, owner.email]);
  if (result.score < MIN_SCORE)
    return 'This password is too common or too easy to guess; a few unrelated words make a strong one';
  return null;
}

/** Refuses a weak new password with a 400 on `field`. */
export function assertStrongPassword(password: string, owner: PasswordOwner, field = 'password'): void {
  const problem = passwordProblem(password, owner);
  if (problem) throw fieldError(field, problem);
}
