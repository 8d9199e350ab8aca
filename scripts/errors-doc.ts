import { writeFileSync } from 'node:fs';
import { renderErrorsDoc } from '#platform/errors/error-descriptions';

/** `npm run docs:errors`: regenerates docs/errors.md from the error catalog. */
writeFileSync('docs/errors.md', renderErrorsDoc());
