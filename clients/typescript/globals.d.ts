// The generated client names fetch's `BodyInit`, a DOM type; on Node it is undici's.
type BodyInit = import('undici-types').BodyInit;
