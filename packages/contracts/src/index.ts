export * from './auth.ts';
export * from './constants.ts';
export * from './errors.ts';
export * from './languages.ts';
export * from './search.ts';
export * from './system.ts';
export * from './themes.ts';
export * from './validation.ts';
