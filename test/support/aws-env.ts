/**
 * Tests reach the embedded DynamoDB and SQS with clients of their own, as a
 * developer's shell would: with a region and dummy credentials, never real ones.
 */
process.env.AWS_ACCESS_KEY_ID ??= 'local';
process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
process.env.AWS_REGION ??= 'us-east-1';
