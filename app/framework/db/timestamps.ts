/** UTC time in Magento's text form `YYYY-MM-DD HH:MM:SS`, the form every dialect stores. */
export function nowTimestamp(date: Date = new Date()): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}
