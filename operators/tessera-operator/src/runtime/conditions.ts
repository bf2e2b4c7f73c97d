/**
 * The one way conditions are set: a condition keeps its lastTransitionTime while its status stays
 * the same (only reason/message move), as metav1.Condition prescribes. Pure.
 */
export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface Condition {
  type: string;
  status: ConditionStatus;
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

/** A condition as a kind's conditions.ts builds it (the time and generation come when set). */
export type ConditionValue = Omit<Condition, 'lastTransitionTime' | 'observedGeneration'>;

export function setCondition(
  conditions: readonly Condition[] | undefined,
  value: ConditionValue,
  now: Date,
  generation: number | undefined,
): Condition[] {
  const list = [...(conditions ?? [])];
  const index = list.findIndex((c) => c.type === value.type);
  const previous = index === -1 ? undefined : list[index];
  const next: Condition = {
    ...value,
    lastTransitionTime:
      previous !== undefined && previous.status === value.status
        ? previous.lastTransitionTime
        : now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    ...(generation === undefined ? {} : { observedGeneration: generation }),
  };
  if (index === -1) list.push(next);
  else list[index] = next;
  return list;
}

export function findCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}
