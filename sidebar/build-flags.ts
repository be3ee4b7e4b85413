/**
 * What the build fixed for this sidebar (scripts/build.ts): whether its deployment says localServers,
 * the playground's and the tests' builds, whose emulator answers over plain http on this machine (only
 * such a sidebar loads a thumbnail or fires the impression pixel at such an address; a sidebar built for
 * Google loads them over https only), and whether it says `"bigquery": true` (only such a sidebar
 * offers a saved report a BigQuery destination: a build without it has no BigQuery element or text).
 */
declare const __ENGAGE_LOCAL_SERVERS__: boolean;
declare const __ENGAGE_BIGQUERY__: boolean;

export const LOCAL_SERVERS: boolean = __ENGAGE_LOCAL_SERVERS__;
export const BIGQUERY: boolean = __ENGAGE_BIGQUERY__;
