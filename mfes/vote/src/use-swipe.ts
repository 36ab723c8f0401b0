import { SWIPE_THRESHOLD_PX } from '@logovote/web-client';
import { useRef, type TouchEvent } from 'react';

export type SwipeDirection = 'left' | 'right';

/** Spec section 9: a horizontal swipe counts past 50 px, and only when it is more sideways than up or down. */
export function swipeDirection(dx: number, dy: number): SwipeDirection | null {
  if (Math.abs(dx) <= SWIPE_THRESHOLD_PX || Math.abs(dx) <= Math.abs(dy)) return null;
  return dx < 0 ? 'left' : 'right';
}

type Point = { x: number; y: number };

/**
 * Touch handlers for an element that follows a one-finger horizontal drag (`track`, moved with a
 * transform: no re-render per move) and calls `onSwipe` when the finger lifts after a swipe. Vertical
 * drags are left to the page (the element should have `touch-action: pan-y`).
 */
export function useSwipe<T extends HTMLElement>(onSwipe: (direction: SwipeDirection) => void) {
  const track = useRef<T>(null);
  const start = useRef<Point | null>(null);

  /** Drags the element by `offset` px; back to 0 it glides, unless the swipe moved on to another logo. */
  const move = (offset: number, glide = true) => {
    if (!track.current) return;
    track.current.style.transform = offset ? `translateX(${offset}px)` : '';
    track.current.style.transition = offset || !glide ? 'none' : '';
  };

  const delta = (event: TouchEvent, from: Point) => {
    const touch = event.changedTouches[0];
    return touch ? { dx: touch.clientX - from.x, dy: touch.clientY - from.y } : null;
  };

  return {
    track,
    handlers: {
      onTouchStart(event: TouchEvent) {
        const touch = event.touches[0];
        start.current = event.touches.length === 1 && touch ? { x: touch.clientX, y: touch.clientY } : null;
      },
      onTouchMove(event: TouchEvent) {
        if (!start.current) return;
        const moved = delta(event, start.current);
        if (moved && Math.abs(moved.dx) > Math.abs(moved.dy)) move(moved.dx * 0.6);
      },
      onTouchEnd(event: TouchEvent) {
        const from = start.current;
        start.current = null;
        const moved = from && delta(event, from);
        const direction = moved && swipeDirection(moved.dx, moved.dy);
        move(0, !direction);
        if (direction) onSwipe(direction);
      },
      onTouchCancel() {
        start.current = null;
        move(0);
      },
    },
  };
}
