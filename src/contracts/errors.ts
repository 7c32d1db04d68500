/**
 * Every `code` the API puts in an error body `{message, code, errors?, details?}`, and when. The
 * server's `AppError` takes only these; the web compares `ApiError.code` with them, never with a
 * literal. A new refusal gets a code here first, with the status it is sent with and what it means.
 * `details` is an object of structured facts (ids of the records a refusal names) that a few codes
 * carry, each saying so below with the contract schema that reads it; the message's words stay for
 * people and are never parsed.
 */
export const ERROR_CODES = {
  // --- Generic, by status -------------------------------------------------------------------
  /** 400: the request is malformed in a way no single field explains (a bad upload, a bad filter). */
  BAD_REQUEST: 'BAD_REQUEST',
  /** 400: input failed its schema or a service's field check; `errors` names each field. */
  VALIDATION: 'VALIDATION',
  /** 401: no session, or it expired. */
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  /** 403: generic refusal (default of `forbidden()`). */
  FORBIDDEN: 'FORBIDDEN',
  /** 403: the signed-in role lacks the route's permission (plugins/access.ts). */
  ROLE_FORBIDDEN: 'ROLE_FORBIDDEN',
  /** 403: missing or invalid CSRF token on a mutating call (plugins/csrf.ts). */
  CSRF: 'CSRF',
  /** 404: no such record, or not the caller's to see. */
  NOT_FOUND: 'NOT_FOUND',
  /** 409: generic conflict with the stored state (default of `conflict()`). */
  CONFLICT: 'CONFLICT',
  /** 422: generic business-rule refusal (default of `unprocessable()`). */
  RULE: 'RULE',
  /** 429: too many attempts (sign-in throttle, or a route's rate limit); `retry-after` says when. */
  RATE_LIMITED: 'RATE_LIMITED',
  /** 500: a fault of ours; the body carries the request id that the log has. */
  INTERNAL: 'INTERNAL',
  /** 503: the server is starting (migrations not yet run). */
  STARTING: 'STARTING',
  /** 403: the business date can be moved only where the server runs with BUSINESS_DATE_CONTROL=true. */
  BUSINESS_DATE_LOCKED: 'BUSINESS_DATE_LOCKED',
  /**
   * 422: the business date asked for is before the current one or the last closed date, or too far
   * ahead; `errors` names `businessDate`.
   */
  BUSINESS_DATE_REFUSED: 'BUSINESS_DATE_REFUSED',
  /** 503: this instance's background-job queue is not running, so a run cannot be queued here. */
  JOBS_STOPPED: 'JOBS_STOPPED',

  // --- Fastify's own request errors (plugins/errors.ts keeps their codes) --------------------
  /** 413: the JSON body is over the size limit. */
  FST_ERR_CTP_BODY_TOO_LARGE: 'FST_ERR_CTP_BODY_TOO_LARGE',
  /** 415: a body that is not JSON where JSON is expected. */
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
  /** 400: content type JSON with an empty body. */
  FST_ERR_CTP_EMPTY_JSON_BODY: 'FST_ERR_CTP_EMPTY_JSON_BODY',
  /** 400: the body does not parse as JSON. */
  FST_ERR_CTP_INVALID_JSON_BODY: 'FST_ERR_CTP_INVALID_JSON_BODY',
  /** 400: Content-Length disagrees with the body. */
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH',

  // --- Sign-in and accounts -------------------------------------------------------------------
  /** 401: wrong email or password (one message for both: no account enumeration). */
  INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
  /** 401: the account has two-factor on and no code was sent; `errors` names `totp`. */
  TOTP_REQUIRED: 'TOTP_REQUIRED',
  /** 401: the two-factor or recovery code is wrong. */
  INVALID_TOTP: 'INVALID_TOTP',
  /** 403: the account is deactivated. */
  ACCOUNT_DISABLED: 'ACCOUNT_DISABLED',
  /** 403: the administrators' sign-in refused a staff member who is not an admin. */
  ADMIN_ONLY: 'ADMIN_ONLY',
  /** 403: registration after the first user needs a valid invite. */
  INVITE_REQUIRED: 'INVITE_REQUIRED',
  /** 409: the email belongs to another account (register, invite, profile). */
  EMAIL_TAKEN: 'EMAIL_TAKEN',
  /** 400: the current password given to confirm a change is wrong. */
  WRONG_PASSWORD: 'WRONG_PASSWORD',
  /** 422: the owner cannot be demoted or deactivated. */
  OWNER_PROTECTED: 'OWNER_PROTECTED',

  // --- Customers and KYC ----------------------------------------------------------------------
  /**
   * 409: the phone already belongs to another customer (the message names them); `details` is
   * that customer, `{customerId, accountNumber, name}` (duplicateCustomerSchema in customers.ts).
   */
  DUPLICATE_PHONE: 'DUPLICATE_PHONE',
  /** 409: the national ID already belongs to another customer; `details` as for DUPLICATE_PHONE. */
  DUPLICATE_NATIONAL_ID: 'DUPLICATE_NATIONAL_ID',
  /** 409: another customer with the same details was saved at the same moment. */
  DUPLICATE: 'DUPLICATE',
  /** 409: the customer changed since the form loaded it (optimistic version check). */
  VERSION_CONFLICT: 'VERSION_CONFLICT',
  /** 422: a customer named by id does not exist (where the id is data, not the path). */
  CUSTOMER_NOT_FOUND: 'CUSTOMER_NOT_FOUND',
  /** 415: an upload that is not multipart. */
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  /** 415: a KYC file whose content is not an accepted image or PDF. */
  UNSUPPORTED_FILE_TYPE: 'UNSUPPORTED_FILE_TYPE',
  /** 422: a KYC file whose first bytes say JPEG, PNG or PDF but which does not read as one (a fake, damaged, password-protected or oversized file); the message says which. */
  UNREADABLE_FILE: 'UNREADABLE_FILE',
  /** 413: an uploaded file over its limit. */
  FILE_TOO_LARGE: 'FILE_TOO_LARGE',
  /** 422: the uploader of a KYC document may not review it (four eyes). */
  SAME_PERSON: 'SAME_PERSON',
  /** 409: the KYC document was already approved or rejected. */
  ALREADY_REVIEWED: 'ALREADY_REVIEWED',
  /** 422: a CSV export would exceed its row limit; narrow the filters. */
  EXPORT_TOO_LARGE: 'EXPORT_TOO_LARGE',

  // --- Devices ----------------------------------------------------------------------------------
  /** 409: a model with this make and name exists. */
  DUPLICATE_MODEL: 'DUPLICATE_MODEL',
  /** 409: the SKU belongs to another model. */
  DUPLICATE_SKU: 'DUPLICATE_SKU',
  /** 409: the serial number belongs to another unit. */
  DUPLICATE_SERIAL: 'DUPLICATE_SERIAL',
  /** 409: the IMEI belongs to another unit. */
  DUPLICATE_IMEI: 'DUPLICATE_IMEI',
  /** 409: a unit with these identifiers was saved at the same moment. */
  DUPLICATE_DEVICE: 'DUPLICATE_DEVICE',
  /** 422: a CSV import has invalid rows; `errors` lists them as `row N: field`. */
  IMPORT_INVALID: 'IMPORT_INVALID',
  /** 422: the model is deactivated and takes no new units. */
  MODEL_INACTIVE: 'MODEL_INACTIVE',
  /** 422: the model's control kind cannot change while units use it. */
  MODEL_IN_USE: 'MODEL_IN_USE',
  /** 422: the unit is already in the status asked for. */
  SAME_STATUS: 'SAME_STATUS',
  /** 422: assigned/released only through contracts, never by hand. */
  CONTRACT_MANAGED: 'CONTRACT_MANAGED',
  /** 422: the unit's status cannot move to the one asked for by hand. */
  TRANSITION_NOT_ALLOWED: 'TRANSITION_NOT_ALLOWED',
  /** 409: the unit is no longer in the status the move needs (taken meanwhile). */
  DEVICE_STATE: 'DEVICE_STATE',
  /** 422: a token was asked for a unit not controlled by OpenPAYGO. */
  NOT_OPENPAYGO: 'NOT_OPENPAYGO',
  /**
   * 422: a token that gives use (time or unlock) for a unit whose contract is in arrears needs a
   * manual override with a reason (`overrideReason`); `details` is the contract's standing
   * (`contractStandingSchema`, src/contracts/devices.ts).
   */
  ARREARS_OVERRIDE_REQUIRED: 'ARREARS_OVERRIDE_REQUIRED',
  /** 422: the unit's control kind does not take this command (OpenPAYGO units take no lock; uncontrolled units none). */
  COMMAND_NOT_SUPPORTED: 'COMMAND_NOT_SUPPORTED',
  /** 409: a command of the same kind is already queued or on its way to this unit. */
  COMMAND_PENDING: 'COMMAND_PENDING',
  /** 409: an acknowledgement for a command that is not awaiting one (queued again, or failed). */
  COMMAND_STATE: 'COMMAND_STATE',
  /** 401: a device provider's callback without a valid signature. */
  BAD_SIGNATURE: 'BAD_SIGNATURE',
  /** 401: an OpenPAYGO Metrics request whose signature is missing or not the unit's key's. */
  METRICS_SIGNATURE_INVALID: 'METRICS_SIGNATURE_INVALID',
  /** 409: an OpenPAYGO Metrics request whose count or timestamp is not above the last accepted one. */
  METRICS_REPLAY: 'METRICS_REPLAY',
  /** 404: an OpenPAYGO Metrics request from a serial number no OpenPAYGO unit has. */
  METRICS_UNKNOWN_DEVICE: 'METRICS_UNKNOWN_DEVICE',

  // --- Plans ------------------------------------------------------------------------------------
  /** 409: a plan with this code exists; edit it to make a new version. */
  CODE_TAKEN: 'CODE_TAKEN',
  /** 422: a plan's code cannot change. */
  CODE_FIXED: 'CODE_FIXED',
  /** 409: the plan already has a draft version; edit that one. */
  DRAFT_EXISTS: 'DRAFT_EXISTS',
  /** 422: the APR is above the organisation's regulatory cap. */
  APR_CAP: 'APR_CAP',
  /** 422: the plan is not active, so no new contract may use it. */
  PLAN_NOT_ACTIVE: 'PLAN_NOT_ACTIVE',

  // --- Contracts and ledger -------------------------------------------------------------------
  /** 409: the contract's status does not allow the move (CONTRACT_TRANSITIONS), or it is already approved. */
  CONTRACT_STATE: 'CONTRACT_STATE',
  /** 422: the plan does not finance the device's category or model. */
  NOT_ELIGIBLE: 'NOT_ELIGIBLE',
  /** 409: the device is already in another contract. */
  DEVICE_TAKEN: 'DEVICE_TAKEN',
  /** 422: whoever created or submitted the contract cannot approve it. */
  MAKER_CHECKER: 'MAKER_CHECKER',
  /** 409: a repossession or write-off request not in a state for this (decided already, not approved yet), or one already open on the contract. */
  RECOVERY_STATE: 'RECOVERY_STATE',
  /** 422: a condition of activation is unmet; the message says which. */
  ACTIVATION_REFUSED: 'ACTIVATION_REFUSED',
  /** 422: a deposit payment would collect more than the deposit. */
  DEPOSIT_EXCEEDED: 'DEPOSIT_EXCEEDED',
  /** 409: an `Idempotency-Key` already used for this operation with a different request. */
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
  /** 409: a payment reference already used for another contract or channel. */
  REFERENCE_USED: 'REFERENCE_USED',
  /** 422: a payment for a contract that is not active (draft, cancelled, paid off...). */
  CONTRACT_NOT_ACTIVE: 'CONTRACT_NOT_ACTIVE',
  /** 409: a mobile-money request to pay is already waiting on the customer's phone for this contract. */
  PUSH_PENDING: 'PUSH_PENDING',
  /** 409: a reversal or transfer for a payment that is not posted, or one already awaiting approval. */
  PAYMENT_STATE: 'PAYMENT_STATE',
  /** 409: a statement import that is not in a state for this (confirm after posting, discard while posting), or whose columns are not all mapped. */
  IMPORT_STATE: 'IMPORT_STATE',

  /** 422: a journal entry's debits and credits differ. */
  UNBALANCED: 'UNBALANCED',
  /** 422: a journal line with both or neither of debit and credit. */
  BAD_JOURNAL_LINE: 'BAD_JOURNAL_LINE',

  // --- The finance engine's refusals (DomainError codes, src/domain) --------------------------
  /** 400: the engine's input is malformed or out of range; `errors` names the field. */
  INVALID_INPUT: 'INVALID_INPUT',
  /** 422: the instalment rounds to zero. */
  INSTALLMENT_ROUNDS_TO_ZERO: 'INSTALLMENT_ROUNDS_TO_ZERO',
  /** 422: rounded down to the multiple, the instalment is below the first period's interest. */
  INSTALLMENT_BELOW_INTEREST: 'INSTALLMENT_BELOW_INTEREST',
  /** 422: the instalment is too small to repay the balance. */
  INSTALLMENT_TOO_SMALL: 'INSTALLMENT_TOO_SMALL',
  /** 422: a restructure scenario with nothing left to restructure. */
  NOTHING_TO_RESTRUCTURE: 'NOTHING_TO_RESTRUCTURE',
  /** 422: a settlement amount short of the payoff. */
  PAYOFF_SHORT: 'PAYOFF_SHORT',
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

const KNOWN: ReadonlySet<string> = new Set(Object.values(ERROR_CODES));

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && KNOWN.has(code);
}
