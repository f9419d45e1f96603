import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** The event API Gateway HTTP API (payload v2) sends, and the local runtime imitates. */
export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2 & { statusCode: number; headers: Record<string, string>; body: string };
