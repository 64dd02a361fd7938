// The visitors' site's paths, in one place: routes, links, the sitemap and the OGC pages'
// canonical links take them from here. A record's page has one canonical URL that always
// answers the page, whatever the client's Accept (the data keeps its own URLs).
import type { CatalogueCollection } from '../catalogue/collections.js';
import type { ListName } from '../catalogue/lists.js';

/** Each collection's pages, by the word a visitor reads in the URL. */
const RECORD_SEGMENTS: Readonly<Record<CatalogueCollection, string>> = {
  features: 'places',
  images: 'pictures',
  documents: 'documents',
  media: 'videos',
};

export const SITE_PATHS = {
  /** The home for people (the map explorer stays at `/`, so shared `/#feature=…` links keep working). */
  about: '/about/',
  search: '/search/',
  record: (collection: CatalogueCollection, id: number) => `/${RECORD_SEGMENTS[collection]}/${id}/`,
  /** The router's pattern of a collection's record pages. */
  recordRoute: (collection: CatalogueCollection) => `/${RECORD_SEGMENTS[collection]}/:id/`,
  favicon: '/favicon.ico',
  faviconSvg: '/favicon.svg',
} as const;

export const SITE_COLLECTIONS: readonly CatalogueCollection[] = ['features', 'images', 'documents', 'media'];

/** The contributors' pages (CONTRIBUTIONS on): never cached, each POST checked by its form's csrf. */
export const CONTRIBUTE_PATHS = {
  account: '/account/',
  signUp: '/account/signup',
  signIn: '/account/signin',
  signOut: '/account/signout',
  password: '/account/password',
  endOtherSessions: '/account/sessions/end-others',
  /** A password reset link (a token of 43 characters), single use, valid an hour. */
  reset: (token: string) => `/account/reset/${token}`,
  resetRoute: '/account/reset/:token',
  /** Where an editor issues a reset link. */
  issueReset: '/moderate/accounts/reset',
  /** A contributor's own contribution: its state, and while it waits, a correction or its withdrawal. */
  mine: (id: number) => `/account/contributions/${id}`,
  mineRoute: '/account/contributions/:id',
  /** A building's form of one kind (contributions/kinds.ts). */
  contribute: (featureId: number, kind: string) => `/contribute/${featureId}/${kind}`,
  contributeRoute: '/contribute/:featureId/:kind',
  queue: '/moderate/',
  review: (id: number) => `/moderate/${id}`,
  reviewRoute: '/moderate/:id',
  approve: (id: number) => `/moderate/${id}/approve`,
  reject: (id: number) => `/moderate/${id}/reject`,
  history: (list: string, id: number) => `/history/${list}/${id}`,
  historyRoute: '/history/:list/:id',
  revert: (list: string, id: number, change: number) => `/history/${list}/${id}/revert/${change}`,
  revertRoute: '/history/:list/:id/revert/:change',
} as const;

/** The lists an editor changes in the browser (issue 47): every list but the authors, who are made by publications. */
export const EDIT_LISTS = ['features', 'images', 'documents', 'media', 'categories', 'sites'] as const satisfies readonly ListName[];
export type EditList = (typeof EDIT_LISTS)[number];

/** The editors' back office (issue 47): editors and admins only, each POST checked by its form's csrf. */
export const EDIT_PATHS = {
  /** Every path here begins so: the editors' guard is on the whole prefix. */
  prefix: '/edit/',
  record: (list: EditList, id: number) => `/edit/${list}/${id}`,
  /** A new record's form: the record route with `new` for its id. */
  create: (list: EditList) => `/edit/${list}/new`,
  recordRoute: '/edit/:list/:id',
  remove: (list: EditList, id: number) => `/edit/${list}/${id}/delete`,
  removeRoute: '/edit/:list/:id/delete',
  /** A change file's upload, its preview, and its application. */
  changes: '/edit/changes',
  recent: '/edit/recent',
} as const;
