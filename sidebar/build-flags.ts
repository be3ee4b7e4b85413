/**
 * What the build fixed for this sidebar (scripts/build.ts): whether its deployment says localServers,
 * the playground's and the tests' builds, whose emulator answers over plain http on this machine. Only
 * such a sidebar loads a thumbnail or fires the impression pixel at such an address; a sidebar built for
 * Google loads them over https only.
 */
declare const __ENGAGE_LOCAL_SERVERS__: boolean;

export const LOCAL_SERVERS: boolean = __ENGAGE_LOCAL_SERVERS__;
