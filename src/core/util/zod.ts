/**
 * The schema library as the core uses it: zod/mini, which is zod's validation at a tenth of its
 * weight (every execution, each custom-function cell included, loads and runs the whole bundle), with
 * zod's English messages, which zod/mini leaves out. Import it as `import * as z from './zod'`.
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config(en());

export * from 'zod/mini';
