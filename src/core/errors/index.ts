/**
 * One error hierarchy for everything the core can fail with. API failures are mapped from their HTTP
 * status by `errorFromResponse`, and each carries what support needs (status, moreInfo, errorMessage,
 * the x-traceid) plus a machine-readable `code`. `userMessage()` renders one sentence that says what
 * happened and what to do next; `message` is that same sentence, because a custom function shows
 * `message` as the cell note and the sidebar shows it as is. The sentence is built when `message` is
 * read, from the finished error: no constructor calls a method that a subclass overrides, so none can
 * read a subclass's fields before they are set.
 */
export * from './api-errors';
export * from './engage-error';
export * from './local-errors';
export * from './permission-error';
