// The site's icon: a house's gable on the pages' accent blue, as SVG (every browser the
// pages serve draws an SVG icon; /favicon.ico answers it too, for clients that ask by name).
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0b57a4"/><path d="M6 15 16 6l10 9v11H19v-7h-6v7H6z" fill="#fff"/></svg>
`;
