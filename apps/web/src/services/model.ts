import type { ModelGroup } from '@huafang/contracts';
import { http } from './request';

/** 'enabled' is what users may pick on /draw; 'all' adds the disabled models for /model. */
export function fetchModelMenu(scope: 'all' | 'enabled') {
  return http.get<ModelGroup[]>('/api/art/model/menu', { scope }, { cache: scope === 'enabled' });
}
