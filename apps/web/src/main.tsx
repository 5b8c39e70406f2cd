import './csp';
import { hydrate } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, bindRouter } from './App';
import { RenderedWidthContext } from './common/use-screen';
import { queryClient } from './query-client';
import { createRouter, loadMatchedRoutes } from './routes';
import { userQueries } from './services/user';
import { dropEarlyTaps } from './ssr/early-taps';
import { readRenderedState } from './ssr/rendered-state';
import { takeFrame } from './ssr/signed-in-frame';
import { useSession } from './stores/session';
import { THEME_CLASS } from './theme';
import './styles.css';
import './screens.css';

// antd scopes its CSS variables to this class: on <html> they reach the page's own elements too (see theme.ts).
document.documentElement.classList.add(THEME_CLASS);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

async function start(root: HTMLElement) {
  // A public page the server rendered for a guest (ssr/entry-server.tsx): the same tree is hydrated from the data it
  // was rendered with. A signed-in reader sees their own header and controls, so the page is rendered afresh.
  const rendered = readRenderedState();
  const { token, userData } = useSession.getState();
  const hydrating = rendered !== null && !token;
  // The server's frame of a signed-in page (/draw), if it is on screen, stays there until the page can replace it
  // whole: not the blank screen nor a spinner in between.
  const overFrame = takeFrame(root);
  // A stored credential without a stored user shows the blank screen until the session answers: it is asked for
  // now, while the page's chunks load and run, rather than once the page has rendered and its layout's effects run.
  const session = token && !userData ? queryClient.prefetchQuery(userQueries.current(token)) : null;
  if (!hydrating) dropEarlyTaps();
  if (hydrating) {
    hydrate(queryClient, rendered.queries);
    await loadMatchedRoutes(window.location.pathname);
  } else if (overFrame) {
    await Promise.all([session, loadMatchedRoutes(window.location.pathname)]);
  }
  const router = createRouter();
  bindRouter(router);
  const app = (
    <StrictMode>
      <RenderedWidthContext value={hydrating ? rendered.width : null}>
        <App router={router} />
      </RenderedWidthContext>
    </StrictMode>
  );
  if (hydrating) hydrateRoot(root, app);
  else {
    root.removeAttribute('aria-busy');
    createRoot(root).render(app);
  }
}

void start(container);
