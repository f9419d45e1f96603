import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import { CfnAccount } from 'aws-cdk-lib/aws-apigateway';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';

/**
 * API Gateway's CloudWatch Logs role for the account and region: an IAM
 * role with AWS's AmazonAPIGatewayPushToCloudWatchLogs policy, set with
 * `AWS::ApiGateway::Account`. A WebSocket (or REST) stage with an access
 * log cannot be created until the account has one.
 *
 * The setting is one per account and region, not per stack: deleting the
 * stack leaves it in place, and the role is retained so that the setting
 * never points at a deleted role (other APIs of the account log through it).
 */
export class ApiGatewayAccount extends Construct {
  readonly role: Role;
  readonly account: CfnAccount;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.role = new Role(this, 'CloudWatchRole', {
      description: "API Gateway's account-wide role for writing access and execution logs to CloudWatch Logs",
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonAPIGatewayPushToCloudWatchLogs')],
    });
    this.role.applyRemovalPolicy(RemovalPolicy.RETAIN);
    this.account = new CfnAccount(this, 'Account', { cloudWatchRoleArn: this.role.roleArn });
    this.account.node.addDependency(this.role);
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason:
        "The role API Gateway documents for its account setting: AWS keeps the policy in step with the service's log writing, for every API of the account.",
    });
  }
}
