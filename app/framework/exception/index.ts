export * from './LocalizedException.js';
export * from './InputException.js';
