// The comparison page (src/render/site/compare.ts): Mirador, bundled here, with the building's
// manifest from this server, a window per picture side by side. The page's list of the
// pictures stays for a browser without scripts. Two plugins fit Mirador to a page of the site:
// each window is titled by its picture (the manifest's label, the building's, would title
// every window alike), and the workspace is a region of the page's main landmark, not a
// second one (Mirador's own is a <main>, made for a page of its own).
import { createElement, type ComponentType, type ReactNode } from 'react';
import { ConnectedBackgroundPluginArea, ConnectedErrorDialog, ConnectedWorkspace, getCanvasLabel, getCurrentCanvas, viewer, type MiradorState, type Plugin } from 'mirador';

function start(root: HTMLElement): void {
  const manifestId = root.dataset.compareManifest;
  const canvases: unknown = JSON.parse(root.dataset.compareCanvases ?? '[]');
  if (manifestId === undefined || !Array.isArray(canvases) || !root.id) return;
  document.querySelector<HTMLElement>('[data-compare-fallback]')?.setAttribute('hidden', '');
  root.hidden = false;
  viewer({
    id: root.id,
    windows: canvases.filter((c) => typeof c === 'string').map((canvasId) => ({ manifestId, canvasId, thumbnailNavigationPosition: 'off' })),
    window: {
      allowClose: false,
      allowMaximize: true,
      allowFullscreen: true,
      defaultSideBarPanel: 'info',
      sideBarOpenByDefault: false,
    },
    workspace: { type: 'mosaic', showZoomControls: true, allowNewWindows: false },
    // Nothing to add from elsewhere: this page shows this building's pictures.
    workspaceControlPanel: { enabled: false },
  }, [titledBy('Window', 'label'), titledBy('WindowTopBarTitle', 'manifestTitle'), WORKSPACE_REGION]);
}

interface Wrapped {
  TargetComponent: ComponentType<Record<string, unknown>>;
  targetProps: Record<string, unknown>;
  canvasLabel?: string;
}

/** A plugin that gives a window's component its current picture's title in place of the manifest's. */
function titledBy(target: string, prop: string): Plugin {
  const component = ({ TargetComponent, targetProps, canvasLabel }: Wrapped) =>
    createElement(TargetComponent, { ...targetProps, ...(canvasLabel ? { [prop]: canvasLabel } : {}) });
  return { target, mode: 'wrap', component, mapStateToProps: canvasLabelOf };
}

function canvasLabelOf(state: MiradorState, { windowId }: { windowId: string }): Record<string, unknown> {
  const canvas = getCurrentCanvas(state, { windowId });
  return { canvasLabel: canvas === undefined ? undefined : getCanvasLabel(state, { windowId, canvasId: canvas.id }) };
}

/** Mirador's workspace area laid out as it lays it (WorkspaceArea.jsx, without the control panel this page turns off), its viewer a named section. */
const WORKSPACE_REGION: Plugin = {
  target: 'WorkspaceArea',
  mode: 'wrap',
  component: ({ targetProps }: { targetProps: { areaRef?: unknown; lang?: string } }): ReactNode => createElement(
    'div',
    { className: 'compare-workspace' },
    createElement(
      'section',
      { className: 'mirador-viewer', lang: targetProps.lang, 'aria-label': 'The pictures, each in a window', ...(targetProps.areaRef ? { ref: targetProps.areaRef } : {}) },
      createElement(ConnectedWorkspace),
      createElement(ConnectedErrorDialog),
      createElement(ConnectedBackgroundPluginArea),
    ),
  ),
};

// Last: the plugins above are made by now.
const root = document.querySelector<HTMLElement>('[data-compare-manifest]');
if (root !== null) start(root);
