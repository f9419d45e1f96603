import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { RelayWebAcl } from '../constructs/relay-web-acl';

/** Props of {@link EdgeStack}. */
export interface EdgeStackProps extends StackProps {
  /** Name of the WebACL. */
  readonly webAclName: string;
}

/**
 * What CloudFront takes from us-east-1 only, whatever the environment's
 * region: the front door's WAF WebACL. Deployed before the service stack,
 * which reads the WebACL's ARN across regions (a weak reference,
 * `Fn::GetStackOutput`), so a first deploy needs nothing made by hand.
 */
export class EdgeStack extends Stack {
  readonly webAcl: RelayWebAcl;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    const { webAclName, ...stackProps } = props;
    super(scope, id, stackProps);
    this.webAcl = new RelayWebAcl(this, 'RelayWebAcl', { name: webAclName });
  }
}
