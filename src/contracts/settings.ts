import { endpoint } from './endpoint';
import {
  organisationBody,
  organisationOptionsSchema,
  organisationSchema,
  preferencesBody,
  preferencesSchema,
  publicOrganisationSchema,
} from './profile';

/** /api/user/preferences, /api/organisation and /api/settings: the user's preferences and the organisation's settings. */
export const settingsEndpoints = {
  preferences: endpoint({ method: 'GET', path: '/api/user/preferences', response: preferencesSchema }),
  savePreferences: endpoint({
    method: 'PUT',
    path: '/api/user/preferences',
    body: preferencesBody,
    response: preferencesSchema,
  }),
  /** What anyone may know (public pages: the calculator, portals). */
  publicOrganisation: endpoint({
    method: 'GET',
    path: '/api/organisation',
    response: publicOrganisationSchema,
  }),
  organisation: endpoint({ method: 'GET', path: '/api/settings/organisation', response: organisationSchema }),
  options: endpoint({ method: 'GET', path: '/api/settings/options', response: organisationOptionsSchema }),
  saveOrganisation: endpoint({
    method: 'PUT',
    path: '/api/settings/organisation',
    body: organisationBody,
    response: organisationSchema,
  }),
};
