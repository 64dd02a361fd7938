// An error as a page, for a browser that asked for one (http/site/error-pages.ts decides):
// the same status and sentence as the JSON answer, and the ways back into the site.
import type { ApiError } from '../../errors.js';
import { homeCrumb, page, type PageAt } from '../../pages/shell.js';
import { SITE_PAGES } from './templates.js';

const HEADINGS: Readonly<Partial<Record<number, string>>> = {
  400: 'That request could not be read',
  404: 'There is no such page',
  405: 'That is not allowed here',
  429: 'Too many requests',
  503: 'The catalogue is busy',
};

export function htmlError(at: PageAt, error: ApiError, requestId: string | null): string {
  const heading = HEADINGS[error.status] ?? (error.status >= 500 ? 'Something went wrong' : 'That request could not be answered');
  return SITE_PAGES.render('error', {
    page: page(at, { title: heading, heading, description: error.detail, alternates: [], crumbs: [homeCrumb(at)] }),
    sentence: error.detail,
    status: error.status,
    requestId,
  });
}
