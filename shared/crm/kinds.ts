import type { CommandKind } from '../commands/kind';
import { crmImportProgressSchema, type CrmImportProgress } from './import-progress';
import { crmImportStoredRequest, type CrmImportRequest } from './import-request';

/** A crm_import command: its request the parsed import request, its progress the tally and the next page's cursor. */
export const crmImportKind: CommandKind<CrmImportRequest, CrmImportProgress> = {
  type: 'crm_import',
  request: crmImportStoredRequest,
  progress: crmImportProgressSchema,
};
