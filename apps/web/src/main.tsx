import './csp';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { THEME_CLASS } from './theme';
import './styles.css';
import './screens.css';

// antd scopes its CSS variables to this class: on <html> they reach the page's own elements too (see theme.ts).
document.documentElement.classList.add(THEME_CLASS);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
