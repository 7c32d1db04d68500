import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { applyTheme, readStoredTheme, resolveTheme } from './app/theme';
import './styles.css';

// Apply the stored theme before the first render so the page does not flash the other one.
applyTheme(resolveTheme(readStoredTheme()));

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
