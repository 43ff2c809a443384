/** The answer of a call whose service answers nothing: `{ success: true }` once it is done. */
export const done = async (work: Promise<unknown>): Promise<{ success: true }> => {
  await work;
  return { success: true };
};
