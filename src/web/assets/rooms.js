// The room grid, made better: totals per night, per room type, the peak night and the room nights
// follow what is typed, before anything is saved; Enter in "Add nights" or "Copy night" presses that
// section's own button rather than Save. Without this script the grid works the same, and the event
// page shows the totals once saved.
(() => {
  for (const section of document.querySelectorAll('[data-subform]')) {
    section.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' || !(event.target instanceof HTMLInputElement)) return;
      event.preventDefault();
      section.querySelector('button[type="submit"]')?.click();
    });
  }

  const grid = document.querySelector('[data-room-grid]');
  if (!grid) return;
  const summary = document.querySelector('[data-room-summary]');
  const format = new Intl.NumberFormat('en-US');

  const rooms = (input) => {
    const number = Number(input.value);
    return input.value.trim() !== '' && Number.isInteger(number) && number >= 0 ? number : 0;
  };

  const update = () => {
    const byType = {};
    let grand = 0;
    let peak = null;
    for (const row of grid.querySelectorAll('tbody tr')) {
      const removed = row.querySelector('input[name="removeNight"]')?.checked;
      let total = 0;
      for (const input of row.querySelectorAll('input[name^="accommodations."]')) {
        const type = input.name.split('.').pop();
        const count = removed ? 0 : rooms(input);
        byType[type] = (byType[type] ?? 0) + count;
        total += count;
      }
      row.querySelector('[data-night-total]').textContent = format.format(total);
      grand += total;
      if (total > 0 && (!peak || total > peak.rooms))
        peak = { label: row.querySelector('th').textContent, rooms: total };
    }
    for (const cell of grid.querySelectorAll('[data-type-total]')) {
      cell.textContent = format.format(byType[cell.getAttribute('data-type-total')] ?? 0);
    }
    grid.querySelector('[data-grand-total]').textContent = format.format(grand);
    if (summary) {
      summary.textContent = `${peak ? `Peak night: ${peak.label}, ${format.format(peak.rooms)} rooms. ` : ''}Total room nights: ${format.format(grand)}.`;
    }
  };

  grid.addEventListener('input', update);
  grid.addEventListener('change', update);
  update();
})();
