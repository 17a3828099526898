import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Sidebar } from '../components/shell/sidebar.tsx';
import { ToolsSidebar } from '../components/shell/tools-sidebar.tsx';
import { prefetchPath } from './route-modules.ts';
import { ROUTE_PREFETCH_ROOT_MARGIN, whenNearViewport } from './use-prefetch-when-near.ts';

vi.mock('./route-modules.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./route-modules.ts')>()),
  prefetchPath: vi.fn(),
}));

/** Records what is observed; the test decides when an element nears the viewport. */
class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];
  readonly observed: Element[] = [];
  disconnected = false;

  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {
    FakeIntersectionObserver.instances.push(this);
  }

  observe(element: Element) {
    this.observed.push(element);
  }

  unobserve() {}

  disconnect() {
    this.disconnected = true;
  }

  takeRecords(): IntersectionObserverEntry[] {
    return [];
  }

  report(isIntersecting: boolean) {
    const entries = this.observed.map((target) => ({ target, isIntersecting }) as IntersectionObserverEntry);
    this.callback(entries, this as unknown as IntersectionObserver);
  }

  static watching(href: string): FakeIntersectionObserver {
    const found = FakeIntersectionObserver.instances.find(
      (instance) =>
        !instance.disconnected && instance.observed.some((element) => element.getAttribute('href') === href),
    );
    if (!found) throw new Error(`Nothing observes the link to ${href}`);
    return found;
  }
}

function renderInRouter(element: React.ReactNode) {
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: ['/'] });
  return render(<RouterProvider router={router} />);
}

beforeEach(() => {
  FakeIntersectionObserver.instances = [];
  vi.mocked(prefetchPath).mockClear();
});

describe('prefetching links near the viewport (spec §9: route prefetch margin 50px)', () => {
  it('uses a 50px margin', () => {
    expect(ROUTE_PREFETCH_ROOT_MARGIN).toBe('50px');
  });

  it('calls back once, when the element first comes near, then stops watching', () => {
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    const onNear = vi.fn();
    whenNearViewport(document.createElement('a'), onNear);
    const [observer] = FakeIntersectionObserver.instances;
    expect(observer?.options.rootMargin).toBe('50px');
    observer?.report(false);
    expect(onNear).not.toHaveBeenCalled();
    observer?.report(true);
    observer?.report(true);
    expect(onNear).toHaveBeenCalledTimes(1);
    expect(observer?.disconnected).toBe(true);
  });

  it('does nothing where IntersectionObserver does not exist', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    const onNear = vi.fn();
    const stop = whenNearViewport(document.createElement('a'), onNear);
    expect(() => stop()).not.toThrow();
    expect(onNear).not.toHaveBeenCalled();
  });

  it('prefetches a sidebar link’s screen when the link nears the viewport', () => {
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    renderInRouter(<Sidebar collapsed={false} mobile={false} mobileOpen={false} onNavigate={() => {}} />);
    // Every sidebar entry and the Help footer link is watched.
    for (const href of ['/', '/trade', '/portfolio', '/analytics', '/wallet', '/settings', '/help']) {
      expect(FakeIntersectionObserver.watching(href).options.rootMargin).toBe('50px');
    }
    expect(prefetchPath).not.toHaveBeenCalled();
    FakeIntersectionObserver.watching('/wallet').report(true);
    expect(prefetchPath).toHaveBeenCalledExactlyOnceWith('/wallet');
  });

  it('prefetches a tools link’s screen when the link nears the viewport', () => {
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    renderInRouter(<ToolsSidebar />);
    FakeIntersectionObserver.watching('/news').report(true);
    expect(prefetchPath).toHaveBeenCalledExactlyOnceWith('/news');
  });

  it('stops watching links that unmount', () => {
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    const { unmount } = renderInRouter(<ToolsSidebar />);
    expect(FakeIntersectionObserver.instances.length).toBeGreaterThan(0);
    unmount();
    expect(FakeIntersectionObserver.instances.every((instance) => instance.disconnected)).toBe(true);
  });

  it('renders the sidebar without IntersectionObserver (jsdom)', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    const { getAllByRole } = renderInRouter(
      <Sidebar collapsed={false} mobile={false} mobileOpen={false} onNavigate={() => {}} />,
    );
    expect(getAllByRole('link').length).toBeGreaterThan(10);
    expect(prefetchPath).not.toHaveBeenCalled();
  });
});
