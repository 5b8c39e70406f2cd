import type { Insertable } from 'kysely';
import { countRows, type PageRequest, pageRows } from '../../platform/db/count.js';
import type { Database } from '../../platform/db/database.js';
import type { HelpRequestTable, HelpTypeTable } from '../../platform/db/schema.js';

export class HelpRepository {
  constructor(private readonly db: Database) {}

  listTypes() {
    return this.db.selectFrom('help_types').select(['id', 'name']).orderBy('sort').execute();
  }

  findType(id: string) {
    return this.db.selectFrom('help_types').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
  }

  async insertType(row: Insertable<HelpTypeTable>): Promise<void> {
    await this.db.insertInto('help_types').values(row).execute();
  }

  async countTypes(): Promise<number> {
    return countRows(this.db.selectFrom('help_types'));
  }

  async insertRequest(row: Insertable<HelpRequestTable>): Promise<void> {
    await this.db.insertInto('help_requests').values(row).execute();
  }

  /** Newest first, with the type's and the asker's names. */
  page(page: PageRequest) {
    return pageRows(this.db.selectFrom('help_requests'), page, (requests) =>
      requests
        .innerJoin('help_types', 'help_types.id', 'help_requests.type_id')
        .leftJoin('users', 'users.id', 'help_requests.user_id')
        .select([
          'help_requests.id',
          'help_types.name as typeName',
          'help_requests.content',
          'help_requests.contact',
          'help_requests.user_id as userId',
          'users.nickname as userName',
          'help_requests.created_at as createdAt',
        ])
        .orderBy('help_requests.created_at', 'desc')
        // Requests sent in the same instant keep one order, so no row repeats or goes missing across pages.
        .orderBy('help_requests.id', 'desc'),
    );
  }
}
