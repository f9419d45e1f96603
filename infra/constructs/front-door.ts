import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { IHttpApi, IWebSocketApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  HttpVersion,
  OriginRequestPolicy,
  PriceClass,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
  type BehaviorOptions,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Construct } from 'constructs';
import { RELAY_PATH_PREFIX } from './relay-web-acl';

/** Props of {@link FrontDoor}. */
export interface FrontDoorProps {
  /** The public host name (PUBLIC_BASE_URL is `https://<it>`). */
  readonly domainName: string;
  /** An ACM certificate in us-east-1 covering `domainName`. */
  readonly certificateArn: string;
  /** Everything but the relay goes here. */
  readonly httpApi: IHttpApi;
  /** `/relay*` goes here; its stage is named `relay`, so the path passes through unchanged (no origin path). */
  readonly webSocketApi: IWebSocketApi;
  /** ARN of the WAF WebACL (scope CLOUDFRONT). */
  readonly webAclArn: string;
  /** Shown in the console. */
  readonly comment?: string;
}

/**
 * One public host for the whole service: a CloudFront distribution at the
 * team's domain, `/relay*` to the WebSocket API (the ConversationRelay
 * socket; CloudFront passes WebSocket upgrades through) and everything else
 * to the HTTP API. Nothing is cached and every method, query string and
 * viewer header reaches the origin but Host (API Gateway answers only to its
 * own name), so `X-Twilio-Signature`, the `Sec-WebSocket-*` headers and the
 * relay URL's query (each call's one-time token, part of what Twilio signs) pass.
 * The handlers check Twilio's signatures against PUBLIC_BASE_URL, the URL
 * Twilio was given, never against the Host header the origin sees.
 */
export class FrontDoor extends Construct {
  readonly distribution: Distribution;
  /** `https://<domainName>` */
  readonly url: string;

  constructor(scope: Construct, id: string, props: FrontDoorProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const executeApiDomain = (apiId: string) => `${apiId}.execute-api.${stack.region}.${stack.urlSuffix}`;
    const passThrough = {
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    } satisfies Partial<BehaviorOptions>;

    this.distribution = new Distribution(this, 'Distribution', {
      ...(props.comment === undefined ? {} : { comment: props.comment }),
      domainNames: [props.domainName],
      certificate: Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn),
      minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_ALL,
      webAclId: props.webAclArn,
      defaultBehavior: {
        // API Gateway gives up on an integration after 30 s (a `Prefer: wait=25` request may take that long): CloudFront waits longer.
        origin: new HttpOrigin(executeApiDomain(props.httpApi.apiId), { readTimeout: Duration.seconds(35), originId: 'HttpApi' }),
        ...passThrough,
      },
      additionalBehaviors: {
        [`${RELAY_PATH_PREFIX}*`]: {
          origin: new HttpOrigin(executeApiDomain(props.webSocketApi.apiId), { originId: 'RelaySocket' }),
          ...passThrough,
        },
      },
    });
    this.url = `https://${props.domainName}`;

    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason: 'Twilio and API clients call from anywhere; the API authenticates every request (API key, Twilio signature).',
      },
      {
        id: 'AwsSolutions-CFR3',
        reason:
          'Both origins keep a JSON access log of every request that reaches them (API Gateway stages); what the WebACL blocks shows in its metrics and sampled requests.',
      },
    );
  }
}
