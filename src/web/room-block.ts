/** The room block as the dashboard shows it: nights × room types, with every total a planner asks for. */
import type { Accommodations, RoomType } from '../domain/types.js';
import { ROOM_TYPES } from '../domain/types.js';

export interface RoomBlock {
  nights: Array<{ night: string; counts: Partial<Record<RoomType, number>>; total: number }>;
  totalsByType: Record<RoomType, number>;
  /** The night with the most rooms (the earliest of equals); undefined when no night holds a room. */
  peak: { night: string; rooms: number } | undefined;
  /** Rooms summed over every night. */
  roomNights: number;
}

export function roomBlock(accommodations: Accommodations): RoomBlock {
  const totalsByType = Object.fromEntries(ROOM_TYPES.map((type) => [type, 0])) as Record<RoomType, number>;
  let peak: RoomBlock['peak'];
  let roomNights = 0;
  const nights = Object.keys(accommodations)
    .sort()
    .map((night) => {
      const counts = accommodations[night] ?? {};
      let total = 0;
      for (const type of ROOM_TYPES) {
        const rooms = counts[type] ?? 0;
        totalsByType[type] += rooms;
        total += rooms;
      }
      roomNights += total;
      if (total > 0 && (!peak || total > peak.rooms)) peak = { night, rooms: total };
      return { night, counts, total };
    });
  return { nights, totalsByType, peak, roomNights };
}
