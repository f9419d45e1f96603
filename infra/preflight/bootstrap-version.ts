/**
 * Bootstrap versions of the installed CDK: aws-cdk-lib 2.276's
 * DefaultStackSynthesizer requires version 6 of the bootstrap stack to
 * deploy (lookups, which this app does not use, would need 8); the CLI
 * (aws-cdk 2.1148) bootstraps with version 33. A test reads both from
 * node_modules, so an upgrade that changes them fails it.
 */
export const REQUIRED_BOOTSTRAP_VERSION = 6;

/** The version `cdk bootstrap` of the project's CLI writes. */
export const CLI_BOOTSTRAP_VERSION = 33;

/** The SSM parameter holding the bootstrap version, for the default qualifier. */
export const BOOTSTRAP_VERSION_PARAMETER = '/cdk-bootstrap/hnb659fds/version';

/** The stack `cdk bootstrap` creates. */
export const BOOTSTRAP_STACK = 'CDKToolkit';
