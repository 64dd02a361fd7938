// The picture page's deep zoom (src/render/site/record.ts): OpenSeadragon over the picture's
// IIIF Image service (its info.json, then its tiles), all from this server. The page's plain
// picture stays underneath, as the page painted it, until the viewer has opened, and alone
// when the service cannot be opened (or without this script).
import OpenSeadragon from 'openseadragon';

/** How much one press of a zoom button zooms. */
const ZOOM_STEP = 1.6;

const frame = document.querySelector<HTMLElement>('[data-zoom-info]');
if (frame !== null) start(frame);

function start(frame: HTMLElement): void {
  const info = frame.dataset.zoomInfo;
  const plain = frame.querySelector<HTMLElement>('a, img');
  if (info === undefined || plain === null) return;
  const element = document.createElement('div');
  element.className = 'zoom-viewer';
  element.setAttribute('role', 'region');
  element.setAttribute('aria-label', frame.dataset.zoomLabel ?? 'Zoomable picture');
  frame.append(element);
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  const viewer = OpenSeadragon({
    element,
    tileSources: info,
    // The canvas drawer: no WebGL needed, and tiles come from this origin (no tainted canvas).
    drawer: 'canvas',
    // Its own buttons load pictures from a prefix URL; the page's buttons (below) are plain HTML.
    showNavigationControl: false,
    visibilityRatio: 1,
    constrainDuringPan: true,
    animationTime: reduced ? 0 : 0.8,
    springStiffness: reduced ? 100 : 6.5,
  });
  viewer.addOnceHandler('open', () => {
    frame.classList.add('zoom-open');
    // Under the viewer now: out of the way of the keyboard and of screen readers.
    plain.inert = true;
    frame.after(controls(viewer, element));
  });
  viewer.addOnceHandler('open-failed', () => {
    viewer.destroy();
    element.remove();
  });
}

/** Zoom in, out and back to the whole picture: buttons a keyboard and a screen reader reach. */
function controls(viewer: OpenSeadragon.Viewer, element: HTMLElement): HTMLElement {
  const group = document.createElement('div');
  group.className = 'zoom-controls';
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', 'Zoom');
  const button = (label: string, act: () => void) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'button';
    b.textContent = label;
    b.addEventListener('click', () => {
      act();
      viewer.viewport.applyConstraints();
    });
    group.append(b);
  };
  button('Zoom in', () => viewer.viewport.zoomBy(ZOOM_STEP));
  button('Zoom out', () => viewer.viewport.zoomBy(1 / ZOOM_STEP));
  button('Whole picture', () => viewer.viewport.goHome());
  const hint = document.createElement('p');
  hint.className = 'muted zoom-hint';
  hint.id = 'zoom-hint';
  hint.textContent = 'Zoom with these buttons, the mouse wheel or a pinch, or the + and − keys on the picture; drag it or use the arrow keys to move around.';
  element.setAttribute('aria-describedby', hint.id);
  group.append(hint);
  return group;
}
