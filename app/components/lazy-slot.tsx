import { lazy, Suspense, type ComponentType } from "react";

/** The slots' modules as the server has them loaded (components/slots.server.ts), by name. */
const loadedOnServer = new Map<string, Record<string, unknown>>();

/** Called once by the server, for every module a slot loads, before it renders a page. */
export function provideSlotModule(id: string, module: Record<string, unknown>) {
  loadedOnServer.set(id, module);
}

/**
 * A component whose code the browser loads only when it is drawn, while the server draws it at
 * once: components/slots.server.ts gives the server every slot's module up front (a static import
 * there never reaches the client build). Server and browser wrap it in the same Suspense boundary,
 * so the page arrives with it, without JavaScript too, and the browser hydrates it once its code
 * is in.
 */
export function lazySlot<M, K extends keyof M & string>(id: string, load: () => Promise<M>, name: K) {
  type Props = M[K] extends ComponentType<infer P> ? P : never;
  const Lazy = lazy(() => load().then((module) => ({ default: module[name] as ComponentType<Props> })));
  return function Slot(props: Props) {
    let Component = Lazy as ComponentType<Props>;
    if (import.meta.env.SSR) {
      const module = loadedOnServer.get(id);
      if (!module) throw new Error(`The server has no module for the slot "${id}" (components/slots.server.ts)`);
      Component = module[name] as ComponentType<Props>;
    }
    return (
      <Suspense fallback={null}>
        <Component {...(props as Props & object)} />
      </Suspense>
    );
  };
}
