/**
 * The deployment this bundle was built for (engage.deploy.json): the build replaces
 * __ENGAGE_DEPLOYMENT__ with the config's addresses, whitelist and account type (scripts/build.ts),
 * so the settings' defaults and the address check always agree with the manifest pushed beside it.
 */
import type { Deployment } from '../../core';

declare const __ENGAGE_DEPLOYMENT__: Deployment;

export const DEPLOYMENT: Deployment = __ENGAGE_DEPLOYMENT__;
