// What the comparison page uses of Mirador 4, whose package has no types: a viewer made from a
// configuration and plugins, the selectors of a window's canvas, and the workspace's parts
// (connected to Mirador's store) that a plugin may lay out again.
declare module 'mirador' {
  import type { ComponentType } from 'react';

  /** Mirador's store's state: read only through its selectors. */
  export type MiradorState = { readonly __brand: 'MiradorState' };
  export interface Canvas {
    readonly id: string;
  }
  export interface Plugin {
    target: string;
    mode: 'wrap' | 'add';
    component: ComponentType<never>;
    mapStateToProps?: (state: MiradorState, props: { windowId: string }) => Record<string, unknown>;
  }

  export function viewer(config: Record<string, unknown>, plugins?: readonly Plugin[]): unknown;
  export function getCurrentCanvas(state: MiradorState, props: { windowId: string }): Canvas | undefined;
  export function getCanvasLabel(state: MiradorState, props: { windowId: string; canvasId: string }): string | undefined;
  export const ConnectedWorkspace: ComponentType;
  export const ConnectedErrorDialog: ComponentType;
  export const ConnectedBackgroundPluginArea: ComponentType;
}
