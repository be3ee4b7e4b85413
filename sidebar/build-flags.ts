/**
 * What the build fixed for this sidebar (scripts/build.ts): whether its deployment says localServers,
 * the playground's and the tests' builds, whose emulator answers over plain http on this machine (only
 * such a sidebar loads a thumbnail or fires the impression pixel at such an address; a sidebar built for
 * Google loads them over https only), and whether it says `"bigquery": true` (only such a sidebar
 * offers a saved report a BigQuery destination).
 */
declare const __ENGAGE_LOCAL_SERVERS__: boolean;

declare global {
  /**
   * Whether the deployment loads into BigQuery. Read where it is used (destination-fields.ts), not
   * through an exported constant: esbuild folds a defined global where it is read, not a constant
   * imported from another module, so a build without BigQuery drops the destination's code and text.
   */
  const __ENGAGE_BIGQUERY__: boolean;
}

export const LOCAL_SERVERS: boolean = __ENGAGE_LOCAL_SERVERS__;
