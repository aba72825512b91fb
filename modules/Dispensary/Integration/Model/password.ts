export function checkPasswordStrength(password: string): string | null {
  if (password.length < 8) return 'The password needs at least 8 characters.';
  if (!/[A-Za-z]/.test(password) || !/[0-9]/.test(password)) return 'The password needs both letters and digits.';
  return null;
}
