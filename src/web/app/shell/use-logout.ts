import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLocation } from 'wouter';
import { authEndpoints } from '@/contracts/auth';
import { api } from '@/web/lib/api';

/** Seed section 4: POST /api/logout, then — whether it worked or not — clear the cache and go to /login. */
export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useCallback(async () => {
    try {
      await api(authEndpoints.logout);
    } catch (error) {
      console.warn('Logout request failed; signing out locally.', error);
    } finally {
      queryClient.clear();
      navigate('/login');
    }
  }, [queryClient, navigate]);
}
