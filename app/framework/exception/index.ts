export * from './LocalizedException.js';
export * from './InputException.js';
export * from './TooManyRequestsException.js';
export * from './ServiceUnavailableException.js';
