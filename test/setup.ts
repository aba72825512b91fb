// Loaded by mocha before any test (see .mocharc.json).
import 'reflect-metadata';

process.env.LOG_LEVEL ??= 'silent';
