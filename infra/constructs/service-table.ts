import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption, type ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { projectedAttributes, TABLE } from '../../shared/catalogue/table';

/** Props of {@link ServiceTable}. */
export interface ServiceTableProps {
  /**
   * What happens to the table (and its data) when it leaves the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * DynamoDB deletion protection: the table cannot be deleted, by
   * CloudFormation or anyone, until it is switched off.
   * @default true
   */
  readonly deletionProtection?: boolean;
}

/**
 * The single table of `TABLE` (shared/catalogue/table.ts), with defaults that
 * cannot be forgotten: on-demand, point-in-time recovery, encryption with
 * the AWS-managed key, the TTL attribute and every global secondary index,
 * each projecting only the attributes its readers read.
 */
export class ServiceTable extends Construct {
  readonly table: ITable;

  constructor(scope: Construct, id: string, props: ServiceTableProps = {}) {
    super(scope, id);
    const table = new Table(this, 'Table', {
      partitionKey: { name: TABLE.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: TABLE.ttlAttribute,
      deletionProtection: props.deletionProtection ?? true,
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
    });
    for (const index of TABLE.indexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.INCLUDE,
        nonKeyAttributes: projectedAttributes(index),
      });
    }
    this.table = table;
  }
}
