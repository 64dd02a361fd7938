// What every page for people says of the catalogue (settings SITE_*): its shell's title,
// publisher and licence, and the site's descriptions.
import type { Config } from '../config.js';

export interface Site {
  readonly title: string;
  readonly description: string;
  readonly publisher: string;
  readonly licence: { readonly name: string; readonly url: string | null };
  readonly locality: string | null;
  readonly country: string | null;
  /** Whether people may contribute (CONTRIBUTIONS): record pages then link to the forms. */
  readonly contributions: boolean;
}

/**
 * `role`: the database's place in replication, when it has one. A read-only replica without
 * PRIMARY_URL answers the contributors' pages with 503, so its pages do not lead to them.
 */
export function siteOf(config: Pick<Config, 'siteTitle' | 'siteDescription' | 'sitePublisher' | 'siteLicence' | 'siteLicenceUrl' | 'siteLocality' | 'siteCountry'> & Partial<Pick<Config, 'contributions' | 'primaryUrl'>>, role: 'primary' | 'replica' | null = null): Site {
  return {
    title: config.siteTitle,
    description: config.siteDescription,
    publisher: config.sitePublisher,
    licence: { name: config.siteLicence, url: config.siteLicenceUrl },
    locality: config.siteLocality,
    country: config.siteCountry,
    contributions: config.contributions === true && !(role === 'replica' && (config.primaryUrl ?? null) === null),
  };
}
