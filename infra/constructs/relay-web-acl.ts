import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { RELAY_STAGE_NAME } from './relay-socket-api';

/**
 * Socket upgrades (connects) one client address may send to `/relay` in
 * five minutes. One connect is one call; a Twilio address opening one every
 * 3 s is far above this service's call rate, while one address flooding
 * unsigned connects (each refused by the handler, but each taking a share of
 * the socket's `relayThrottle`) is blocked at the edge.
 */
export const RELAY_CONNECTS_PER_ADDRESS = 100;

/** The relay's path on the public host: the stage name, passed through unchanged. */
export const RELAY_PATH_PREFIX = `/${RELAY_STAGE_NAME}`;

/** Props of {@link RelayWebAcl}. */
export interface RelayWebAclProps {
  /** Name of the WebACL and of its metrics. */
  readonly name: string;
}

/**
 * The front door's WAF WebACL (scope CLOUDFRONT, so it must be made in
 * us-east-1): everything allowed, except a client address past
 * {@link RELAY_CONNECTS_PER_ADDRESS} requests to `/relay*` in five minutes.
 */
export class RelayWebAcl extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: RelayWebAclProps) {
    super(scope, id);
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: props.name,
      description: 'Switchboard front door: rate limit on the ConversationRelay socket path',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: props.name, sampledRequestsEnabled: true },
      rules: [
        {
          name: 'RelayConnectsPerAddress',
          priority: 0,
          action: { block: {} },
          statement: {
            rateBasedStatement: {
              limit: RELAY_CONNECTS_PER_ADDRESS,
              evaluationWindowSec: 300,
              aggregateKeyType: 'IP',
              scopeDownStatement: {
                byteMatchStatement: {
                  fieldToMatch: { uriPath: {} },
                  positionalConstraint: 'STARTS_WITH',
                  searchString: RELAY_PATH_PREFIX,
                  textTransformations: [{ priority: 0, type: 'NONE' }],
                },
              },
            },
          },
          visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: `${props.name}-relay-connects`, sampledRequestsEnabled: true },
        },
      ],
    });
  }
}
