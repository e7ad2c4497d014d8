// City suggestions on the event form and the venue form: typing in a City field offers the gazetteer's places (most
// populous first, "Lisbon, Lisbon, Portugal") in a native list; choosing one fills the row's country
// (by name) and, in the US, its state, when they are empty.
// Without this script the fields are plain text fields, and cities are still matched when saved.
(() => {
  // An event's candidate cities (`formattedLocations[0].city`, with `….state` and `….country`) and a
  // venue's one city (`city`, with `state` and `country`).
  const cityFields = document.querySelectorAll(
    'input[name^="formattedLocations["][name$="].city"], input[name="city"]',
  );
  // The form names the address that answers, so the dashboard builds its addresses in one place.
  const source = document.querySelector('[data-place-suggestions]')?.dataset.placeSuggestions;
  if (cityFields.length === 0 || !source) return;
  const suggestions = new Map();
  let timer;

  for (const input of cityFields) {
    const list = document.createElement('datalist');
    list.id = `${input.id}-places`;
    input.after(list);
    input.setAttribute('list', list.id);
    input.setAttribute('autocomplete', 'off');
    // The row's prefix: `formattedLocations[0].`, or nothing for the venue form.
    const row = input.name.slice(0, input.name.length - 'city'.length);
    const sibling = (name) => document.querySelector(`input[name="${row}${name}"]`);

    input.addEventListener('input', () => {
      clearTimeout(timer);
      const q = input.value.trim();
      if (q.length < 2) return;
      timer = setTimeout(async () => {
        const response = await fetch(`${source}?q=${encodeURIComponent(q)}`, {
          credentials: 'same-origin',
        });
        if (!response.ok) return;
        const { data } = await response.json();
        // Places are most populous first: for a name given twice, the first is the one meant.
        for (const key of [...suggestions.keys()]) if (key.startsWith(`${row}:`)) suggestions.delete(key);
        for (const place of data) {
          if (!suggestions.has(`${row}:${place.city}`)) suggestions.set(`${row}:${place.city}`, place);
        }
        list.replaceChildren(
          ...data.map((place) => {
            const option = document.createElement('option');
            option.value = place.city;
            option.label = place.label;
            return option;
          }),
        );
      }, 150);
    });

    input.addEventListener('change', () => {
      const place = suggestions.get(`${row}:${input.value}`);
      if (!place) return;
      const country = sibling('country');
      if (country && country.value.trim() === '') country.value = place.country;
      const state = sibling('state');
      if (state && state.value.trim() === '' && place.state) state.value = place.state;
    });
  }
})();
