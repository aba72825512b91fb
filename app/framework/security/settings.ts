/** Deployment settings of the admin login (see the README's Configuration table). */
export interface AdminLoginSettings {
  /** Failed logins in a row that lock a user name (ADMIN_LOCKOUT_FAILURES, 6; 0 turns the lock-out off). */
  readonly lockoutFailures: number;
  /** How long the lock lasts after the last failure, in minutes (ADMIN_LOCKOUT_MINUTES, 30). */
  readonly lockoutMinutes: number;
  /** Token requests per client address per window (ADMIN_TOKEN_RATE_LIMIT, 10; 0 turns the limit off). */
  readonly rateLimit: number;
  /** The window, in seconds (ADMIN_TOKEN_RATE_WINDOW_SECONDS, 60). */
  readonly rateWindowSeconds: number;
  /** Least time before any refusal (401, 429, 503) is answered, in ms (ADMIN_LOGIN_FAILURE_DELAY_MS, 1000). */
  readonly failureDelayMs: number;
}

/** Deployment settings of password hashing (scrypt, r=8, p=1). */
export interface PasswordHashingSettings {
  /** scrypt's N, a power of two (PASSWORD_SCRYPT_COST, 131072 = 2^17, OWASP's guidance). */
  readonly scryptCost: number;
  /** Hashes computed at once (PASSWORD_HASH_CONCURRENCY, half the CPUs, at least 1). */
  readonly concurrency: number;
  /** Callers allowed to wait for a hashing slot; beyond it, 503 at once (PASSWORD_HASH_QUEUE, 16). */
  readonly queue: number;
}
