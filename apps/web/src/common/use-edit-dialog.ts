import { useState } from 'react';

/** The create/edit dialog of a list page: open for a new item (none) or an existing one. */
export function useEditDialog<T>() {
  const [open, setOpen] = useState(false);
  // Kept while the dialog closes, so its title and fields do not change during the fade.
  const [editing, setEditing] = useState<T>();
  return {
    open,
    editing,
    show(item?: T) {
      setEditing(item);
      setOpen(true);
    },
    close: () => setOpen(false),
  };
}
