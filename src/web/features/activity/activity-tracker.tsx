import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { startActivityTracker, stopActivityTracker, trackPageVisit } from './tracker';

/** Starts the tracker while signed in and reports each route change; renders nothing. */
export function ActivityTracker() {
  const [location] = useLocation();
  useEffect(() => {
    startActivityTracker();
    return stopActivityTracker;
  }, []);
  useEffect(() => {
    trackPageVisit(location);
  }, [location]);
  return null;
}
